-- The reference receiver's tables in MySQL/MariaDB, as a Laravel app's migrations make them: an
-- orders row per payment keyed by the caller's reference, its status in the app's own words
-- (pending, paid, failed), and one order_events row per outcome applied (the app's fulfilment
-- hangs off it: the wallet credit, the receipt e-mail). Created on start when missing.
CREATE TABLE IF NOT EXISTS orders (
  id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY,
  reference varchar(191) NOT NULL,
  amount decimal(12, 2) NOT NULL,
  status varchar(32) NOT NULL DEFAULT 'pending',
  paid_at timestamp NULL,
  created_at timestamp NULL,
  updated_at timestamp NULL,
  UNIQUE KEY orders_reference_unique (reference)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS order_events (
  id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_id bigint unsigned NOT NULL,
  event varchar(32) NOT NULL,
  created_at timestamp NULL,
  CONSTRAINT order_events_order_id_foreign FOREIGN KEY (order_id) REFERENCES orders (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
