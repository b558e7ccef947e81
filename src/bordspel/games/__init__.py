"""One package per game: its rules, its knowledge for the players and its pictures."""
