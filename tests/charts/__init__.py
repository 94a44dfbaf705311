"""Chart tests."""
