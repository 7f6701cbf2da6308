-- The league: leagues and their seasons, venues, kiosks and how they pair, and the games.

CREATE TABLE admin_tokens (
    id serial PRIMARY KEY,
    digest text NOT NULL UNIQUE,          -- sha256 of the token: the token itself is not kept
    name text NOT NULL,
    league integer,                       -- NULL: any league (and may create leagues)
    created timestamptz NOT NULL DEFAULT now(),
    revoked timestamptz
);

CREATE TABLE leagues (
    id serial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    secret text NOT NULL,                 -- the daily challenge's fleet is drawn from it
    points_win integer NOT NULL DEFAULT 3,
    points_loss integer NOT NULL DEFAULT 0,
    created timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE seasons (
    id serial PRIMARY KEY,
    league integer NOT NULL REFERENCES leagues(id),
    name text NOT NULL,
    starts date NOT NULL,
    UNIQUE (league, name),
    UNIQUE (league, starts)
);

CREATE TABLE venues (
    id serial PRIMARY KEY,
    league integer NOT NULL REFERENCES leagues(id),
    name text NOT NULL,
    created timestamptz NOT NULL DEFAULT now(),
    UNIQUE (league, name)
);

CREATE TABLE pairing_codes (
    digest text PRIMARY KEY,              -- sha256 of the code
    venue integer NOT NULL REFERENCES venues(id),
    created timestamptz NOT NULL DEFAULT now(),
    expires timestamptz NOT NULL,
    used timestamptz
);

CREATE TABLE kiosks (
    id serial PRIMARY KEY,
    venue integer NOT NULL REFERENCES venues(id),
    name text NOT NULL,
    key text NOT NULL,                    -- the HMAC key (the hub must know it to check)
    created timestamptz NOT NULL DEFAULT now(),
    revoked timestamptz,
    last_seen timestamptz
);

CREATE TABLE nonces (
    kiosk integer NOT NULL REFERENCES kiosks(id),
    nonce text NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kiosk, nonce)
);
CREATE INDEX nonces_at ON nonces (at);

CREATE TABLE games (
    uuid uuid PRIMARY KEY,
    league integer NOT NULL REFERENCES leagues(id),
    venue integer NOT NULL REFERENCES venues(id),
    kiosk integer NOT NULL REFERENCES kiosks(id),
    kind text NOT NULL,
    started timestamptz NOT NULL,
    finished timestamptz NOT NULL,
    winner integer,
    turns integer NOT NULL,
    counted boolean NOT NULL,             -- people on every side: counts in tables and ratings
    daily date,                           -- a classic daily challenge: its day
    digest text NOT NULL,                 -- sha256 of the report: the same upload again is a no-op
    setup jsonb NOT NULL,
    log jsonb NOT NULL,
    received timestamptz NOT NULL DEFAULT now(),
    seq bigserial UNIQUE                  -- the order the hub took them in
);
CREATE INDEX games_league ON games (league, finished);
CREATE INDEX games_venue ON games (venue, finished);
CREATE INDEX games_daily ON games (league, daily) WHERE daily IS NOT NULL;

CREATE TABLE game_players (
    game uuid NOT NULL REFERENCES games(uuid),
    side integer NOT NULL,
    player text NOT NULL,                 -- as the kiosk wrote it
    key text NOT NULL,                    -- the league's name for them: trimmed, case folded
    computer boolean NOT NULL,
    shots integer NOT NULL,
    hits integer NOT NULL,
    sunk integer NOT NULL,
    turns integer NOT NULL,
    won boolean NOT NULL,
    PRIMARY KEY (game, side, player)
);
CREATE INDEX game_players_key ON game_players (key);
