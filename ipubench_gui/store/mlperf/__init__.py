"""Official MLPerf Training results read from their logs: scored as the
MLCommons summarizer does, built into data/, or imported by the user."""
