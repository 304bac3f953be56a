"""What check and simulate found, as text for the terminal and as JSON for editors and serve."""
