"""Many games of one setup played at once (numpy): the figures of how a game plays — who wins from
which seat, how long it lasts, how often a player is out at once — with their confidence."""
