// The progress line moved to src/progress/; this path stays for the modules that import it here.
export { Progress } from '../progress/progress.js';
