"""The nvdev harness: set-up, builds, boot, run and trace tools."""
