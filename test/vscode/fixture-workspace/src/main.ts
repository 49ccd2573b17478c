import { greet } from './greet';

console.log(greet('world'));
