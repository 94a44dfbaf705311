"""The user's own database beside the bundled store: imported files (read,
checked, landed), their names and the user's aliases, and the views that
combine them with the bundled rows."""
