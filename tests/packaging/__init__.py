"""Packaging tests."""
