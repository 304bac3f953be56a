from cardgen.cli import main

raise SystemExit(main())
