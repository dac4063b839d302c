// The one test secret and client key of every signature vector: obviously fake, never real.
export const VECTOR_SECRET = 'vector-secret-key-not-a-real-one';
export const VECTOR_CLIENT_KEY = 'vector-client-key-not-a-real-one';
