-- Ratings and tables ask "has anything new arrived in this league (and kind)?" on every read.
CREATE INDEX games_league_kind_seq ON games (league, kind, seq);
