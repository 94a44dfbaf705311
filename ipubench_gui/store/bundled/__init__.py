"""The bundled store built from data/: its sources, tables and views (the
.sql files beside this), and the canonical names every row is given."""
