"""Pages of the game, one module per area (events, sales, draw night, board...).

Views parse input, call one service or selector, and render; refusals
(`DomainError`) are shown to the user in plain words.
"""
