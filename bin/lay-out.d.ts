// Types of bin/lay-out.js for the TypeScript that imports it (suites/support/installed.ts).
/** The checkout's package laid out as installed: `<checkout>/.installed`. */
export declare const LAID_OUT: string;
/** True when .installed/ was built after every file it is made from last changed. */
export declare function upToDate(): boolean;
/** .installed/ up to date, built first if needed; resolves with its folder. Throws if it cannot be built. */
export declare function layOut(): Promise<string>;
