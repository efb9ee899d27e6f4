"""Pages of licensing, one module per area. Views parse input, call one
service or selector, and render; refusals are shown in plain words."""
