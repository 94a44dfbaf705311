"""Test suite (a package so the benchmarks can import shared helpers)."""
