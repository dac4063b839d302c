-- The reference receiver's tables in PostgreSQL, as a Supabase app keeps its payments: a row per
-- payment keyed by the caller's transaction_id, its status in the app's own words (PENDING,
-- COMPLETED, FAILED), and one payment_events row per outcome applied (the app's fulfilment
-- hangs off it: the wallet credit, the receipt e-mail). Created on start when missing.
CREATE TABLE IF NOT EXISTS payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  transaction_id text NOT NULL UNIQUE,
  amount numeric(12, 2) NOT NULL,
  status text NOT NULL DEFAULT 'PENDING',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS payment_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payment_id uuid NOT NULL REFERENCES payments (id),
  status text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS payment_events_payment_id_idx ON payment_events (payment_id);
