#!/usr/bin/env node
// The CLI runs from the compiled output; `npm run build` (also run by `npm start`) produces it.
import '../dist/main.js';
