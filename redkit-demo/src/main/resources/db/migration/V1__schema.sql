-- The catalogue the cache sits in front of: 10,000 products, enough for a batch read and a cold-cache load.
CREATE TABLE products (
    id          bigint      PRIMARY KEY,
    name        text        NOT NULL,
    price_cents bigint      NOT NULL CHECK (price_cents >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO products (id, name, price_cents)
SELECT g, 'Product ' || g, 100 + (g * 37) % 10000 FROM generate_series(1, 10000) AS g;

-- Demo accounts. password_hash is PBKDF2-HMAC-SHA256: 'pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>'.
-- alice / wonderland, bob / builder (600,000 iterations, OWASP's figure for this hash)
CREATE TABLE accounts (
    id            text PRIMARY KEY,
    display_name  text NOT NULL,
    password_hash text NOT NULL
);

-- Orders: the Idempotency-Key is the unique constraint, so a retried or duplicated POST finds the first order.
-- request_hash refuses the same key with a different body. published_at is the outbox mark: an order whose event
-- is not yet on the stream (Redis was down at commit) is published again by the relay.
CREATE TABLE orders (
    id              bigserial   PRIMARY KEY,
    idempotency_key text        NOT NULL UNIQUE,
    request_hash    text        NOT NULL,
    product_id      bigint      NOT NULL REFERENCES products (id),
    quantity        int         NOT NULL CHECK (quantity > 0),
    total_cents     bigint      NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    published_at    timestamptz
);
CREATE INDEX orders_unpublished ON orders (id) WHERE published_at IS NULL;

-- The worker's effect: one row per order, under its primary key, in the same transaction as the work.
CREATE TABLE fulfilments (
    order_id   bigint      PRIMARY KEY REFERENCES orders (id),
    instance   text        NOT NULL,
    handled_at timestamptz NOT NULL DEFAULT now()
);

-- The report job's result, one row per period, written through the fence guard (the fence column).
CREATE TABLE reports (
    id            text        PRIMARY KEY,
    fence         bigint      NOT NULL,
    instance      text        NOT NULL,
    orders        bigint      NOT NULL,
    revenue_cents bigint      NOT NULL,
    written_at    timestamptz NOT NULL
);
-- Every run of the job, with no constraint: what shows that it ran once per period.
CREATE TABLE report_runs (
    period   text        NOT NULL,
    instance text        NOT NULL,
    fence    bigint      NOT NULL,
    ran_at   timestamptz NOT NULL DEFAULT now()
);

INSERT INTO accounts (id, display_name, password_hash) VALUES
    ('alice', 'Alice', 'pbkdf2-sha256$600000$v1KIx3U7R3PAwFw9g2Ql7g$yheeZwLCDRxDdLbuQESAoqeb9zksrio1BnoUL5HNDDE'),
    ('bob',   'Bob',   'pbkdf2-sha256$600000$3GQdSE0BbZHbfoK/JlLN+g$U2XsmMca5hs1QH03dLCTFqufG4ZjpNqlR4zWrLUGWEM');
