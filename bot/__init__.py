"""OFC Pineapple for Discord."""
