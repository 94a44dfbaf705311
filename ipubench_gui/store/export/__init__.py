"""Stored results written to files (CSV, Markdown, JSON, Parquet, xlsx):
streamed, atomic, never partial."""
