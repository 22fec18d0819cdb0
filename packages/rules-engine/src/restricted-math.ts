import type { FactoryFunctionMap } from 'mathjs';
import {
  absDependencies,
  acosDependencies,
  addDependencies,
  andDependencies,
  asinDependencies,
  atan2Dependencies,
  atanDependencies,
  cbrtDependencies,
  ceilDependencies,
  cosDependencies,
  create,
  divideDependencies,
  equalDependencies,
  expDependencies,
  floorDependencies,
  hypotDependencies,
  largerDependencies,
  largerEqDependencies,
  log2Dependencies,
  log10Dependencies,
  logDependencies,
  maxDependencies,
  minDependencies,
  modDependencies,
  multiplyDependencies,
  notDependencies,
  orDependencies,
  parseDependencies,
  powDependencies,
  roundDependencies,
  signDependencies,
  sinDependencies,
  smallerDependencies,
  smallerEqDependencies,
  sqrtDependencies,
  subtractDependencies,
  tanDependencies,
  unaryMinusDependencies,
  unaryPlusDependencies,
  unequalDependencies,
  xorDependencies,
} from 'mathjs/number';

/**
 * A mathjs instance with plain numbers and only the functions formulas may call. Nothing else exists
 * in its namespace: no units, matrices, strings, `import`, `createUnit`, `evaluate`, `simplify`,
 * `derivative`, `resolve`, `compile`. The AST allow-list in compile-formula.ts is the first wall; this
 * namespace is the second, and the functions that could reach the host or the parser are replaced by
 * ones that throw, as mathjs's security notes advise.
 */
// The type declarations mark every *Dependencies export as possibly undefined (they cover builds
// without it); in the number build all of these exist, and create() throws at load time otherwise.
const dependencies = {
  parseDependencies,
  addDependencies,
  subtractDependencies,
  multiplyDependencies,
  divideDependencies,
  unaryMinusDependencies,
  unaryPlusDependencies,
  powDependencies,
  modDependencies,
  equalDependencies,
  unequalDependencies,
  smallerDependencies,
  smallerEqDependencies,
  largerDependencies,
  largerEqDependencies,
  andDependencies,
  orDependencies,
  notDependencies,
  xorDependencies,
  absDependencies,
  ceilDependencies,
  floorDependencies,
  roundDependencies,
  signDependencies,
  sqrtDependencies,
  cbrtDependencies,
  expDependencies,
  logDependencies,
  log2Dependencies,
  log10Dependencies,
  minDependencies,
  maxDependencies,
  hypotDependencies,
  sinDependencies,
  cosDependencies,
  tanDependencies,
  asinDependencies,
  acosDependencies,
  atanDependencies,
  atan2Dependencies,
} as FactoryFunctionMap;
const math = create(dependencies, {});

/** The parser, taken before it is disabled in the namespace formulas evaluate against. */
export const parseFormula = math.parse;

/** Functions a formula may call by name. */
export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([
  'abs',
  'ceil',
  'floor',
  'round',
  'sign',
  'sqrt',
  'cbrt',
  'exp',
  'log',
  'log2',
  'log10',
  'pow',
  'mod',
  'min',
  'max',
  'hypot',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
]);

/** Operators (OperatorNode.fn) a formula may use. */
export const ALLOWED_OPERATORS: ReadonlySet<string> = new Set([
  'add',
  'subtract',
  'multiply',
  'divide',
  'unaryMinus',
  'unaryPlus',
  'pow',
  'mod',
  'equal',
  'unequal',
  'smaller',
  'smallerEq',
  'larger',
  'largerEq',
  'and',
  'or',
  'not',
  'xor',
]);

/** Named explicitly so a formula calling them gets `forbidden_function` rather than `unknown_function`. */
export const FORBIDDEN_FUNCTIONS: ReadonlySet<string> = new Set([
  'import',
  'createUnit',
  'evaluate',
  'parse',
  'simplify',
  'derivative',
  'resolve',
  'compile',
  'reviver',
  'replacer',
  'config',
  'typed',
  'chain',
  'help',
  'format',
  'print',
  'constructor',
  'eval',
  'Function',
  'require',
  'process',
  'globalThis',
]);

function disabled(name: string) {
  return () => {
    throw new Error(`Function ${name} is disabled`);
  };
}

math.import(
  Object.fromEntries(
    ['import', 'createUnit', 'evaluate', 'parse', 'simplify', 'derivative', 'resolve', 'compile'].map(
      (name) => [name, disabled(name)],
    ),
  ),
  { override: true },
);
