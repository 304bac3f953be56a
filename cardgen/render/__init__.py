"""render: turn the checked model into PDFs (ReportLab card sheets, WeasyPrint documents)."""
