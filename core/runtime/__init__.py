"""Process-wide services: settings, error types, keyed locks, campaign events."""
