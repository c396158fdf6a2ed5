-- Who may do what: every account may place orders; only an 'editor' may change products (alice may, bob may not).
ALTER TABLE accounts ADD COLUMN role text NOT NULL DEFAULT 'customer' CHECK (role IN ('customer', 'editor'));
UPDATE accounts SET role = 'editor' WHERE id = 'alice';

-- Orders are placed by a signed-in account, recorded here. An Idempotency-Key is the client's own: it is unique per
-- account, so another account sending the same key places its own order and never sees this one. Orders placed
-- before this migration keep a null owner (nulls never conflict).
ALTER TABLE orders ADD COLUMN placed_by text REFERENCES accounts (id);
ALTER TABLE orders DROP CONSTRAINT orders_idempotency_key_key;
ALTER TABLE orders ADD CONSTRAINT orders_placed_by_idempotency_key_key UNIQUE (placed_by, idempotency_key);
