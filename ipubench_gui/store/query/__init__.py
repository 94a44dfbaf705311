"""What the app asks of a built store: a FilterState compiled to SQL or
answered in memory, the rows, facet counts, charts and the claims audit."""
