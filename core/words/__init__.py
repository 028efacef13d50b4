"""Words users read: message catalogues, and the rules' words in the reader's language."""
