// Public surface of the package; filled in as the package is built (see its README).
export {};
