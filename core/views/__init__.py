"""What a viewer may see: projections of campaigns, the Mini App's pages, the story, the archive."""
