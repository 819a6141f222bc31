/** Identifiers shared by the documented examples, so that they refer to one another. */

export const EXAMPLE_BASE_URL = 'https://api.example.org';
export const EXAMPLE_ACCOUNT = 'account.3f6c0a7b2d9e4f1a8c5b6d7e8f9a0b1c';
export const EXAMPLE_MATCH = '6a0f3c2e-1b4d-4e8f-9a7c-5d2b1e0f3a4c';
export const EXAMPLE_MATCH_2 = 'c41d9e27-80b3-4f6a-b25e-9f1a7c3d6e08';
export const EXAMPLE_SEASON = 'division.bro.official.pc-2018-45';
