// The reference receiver keeping its records in MariaDB (examples/observe/laravel-orders): every
// fault caught through its database, a correct receiver all PASS (receiver-on-sql.ts says what
// each test proves).
import { receiverOnSqlSuite } from './receiver-on-sql.ts';

receiverOnSqlSuite('mariadb', ['sql']);
