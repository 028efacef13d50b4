"""Benchmarks, run with `make bench`: they print figures; they never fail a build."""
