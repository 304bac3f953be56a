"""inputs: reading untrusted files safely. The one rule of which files may be read (inside the
game folder, templates/ and art/; regular files only; bounded sizes), images, SVG symbols and
fonts."""
