// The reference receiver keeping its records in PostgreSQL (examples/observe/supabase-payments):
// every fault caught through its database and through a command observer, a correct receiver
// all PASS (receiver-on-sql.ts says what each test proves).
import { receiverOnSqlSuite } from './receiver-on-sql.ts';

receiverOnSqlSuite('postgresql', ['sql', 'command']);
