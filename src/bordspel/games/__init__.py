"""One package per game: engine, knowledge and front-end parts of each game."""
