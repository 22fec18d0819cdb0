import type { MathNode } from 'mathjs';
import { ALLOWED_FUNCTIONS, ALLOWED_OPERATORS, FORBIDDEN_FUNCTIONS, parseFormula } from './restricted-math';

/** Why a formula was refused; all of them are API code 89 (VIRTUAL_FIELD_FORMULA_INVALID). */
export type FormulaProblem =
  | 'empty'
  | 'too_long'
  | 'syntax'
  | 'string_literal'
  | 'unknown_field'
  | 'forbidden_function'
  | 'unknown_function'
  | 'forbidden_construct'
  | 'division_by_zero'
  | 'non_finite';

export interface FormulaError {
  problem: FormulaProblem;
  /** The offending name or text, when there is one. */
  subject?: string;
  message: string;
}

export interface CompiledFormula {
  /** Field names the formula reads, in order of first appearance. */
  fields: readonly string[];
  /** Evaluates with the fields' numeric values (same order as `fields`); null when not a finite number. */
  evaluate(values: readonly number[]): number | null;
}

type CompileResult = { ok: true; formula: CompiledFormula } | { ok: false; error: FormulaError };

// A formula runs on every uplink; a bound on its size bounds its cost (and the parser's recursion).
export const FORMULA_MAX = 1000;
const NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
// A virtual field (its UUID has hyphens, which would read as minus signs) or a dotted identifier chain.
const VIRTUAL_NAME =
  /^virtual\.[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\.\w+/;
const IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*/u;
// Literals and the word operators of the mathjs grammar stay as they are.
const KEYWORDS = new Set(['true', 'false', 'and', 'or', 'not', 'xor', 'mod']);

function fail(problem: FormulaProblem, message: string, subject?: string): CompileResult {
  return { ok: false, error: subject === undefined ? { problem, message } : { problem, subject, message } };
}

/**
 * Rewrites field references to safe symbols `__f0`, `__f1`, ... before mathjs parses the text, so dots
 * and UUID hyphens in names cannot turn into property access or subtraction. A reference is an
 * identifier chain not followed by `(` (that is a function call), a `virtual.<uuid>.<name>` name, or any
 * text in braces `{...}` (for names with spaces or other characters). String literals are refused.
 */
function rewriteReferences(text: string): { source: string; fields: string[] } | FormulaError {
  const fields: string[] = [];
  const symbolOf = (name: string): string => {
    let index = fields.indexOf(name);
    if (index < 0) index = fields.push(name) - 1;
    return `__f${index}`;
  };
  let source = '';
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const char = text[i] as string;
    if (char === '"' || char === "'" || char === '`') {
      return {
        problem: 'string_literal',
        message: 'Formulas work on numbers; text literals are not allowed.',
      };
    }
    if (char === '{') {
      const close = text.indexOf('}', i);
      if (close < 0) return { problem: 'syntax', message: 'Unclosed { in a field reference.' };
      const name = text.slice(i + 1, close).trim();
      if (name === '') return { problem: 'syntax', message: 'Empty field reference {}.' };
      source += symbolOf(name);
      i = close + 1;
      continue;
    }
    const number = NUMBER.exec(rest);
    if (number && /[\d.]/.test(char)) {
      source += number[0];
      i += number[0].length;
      continue;
    }
    const name = VIRTUAL_NAME.exec(rest)?.[0] ?? IDENTIFIER.exec(rest)?.[0];
    if (name) {
      const after = text.slice(i + name.length).trimStart();
      if (after.startsWith('(')) {
        if (name.includes('.'))
          return {
            problem: 'forbidden_construct',
            subject: name,
            message: `${name}(...) is not a function.`,
          };
        source += name;
      } else if (KEYWORDS.has(name)) {
        source += name;
      } else {
        source += symbolOf(name);
      }
      i += name.length;
      continue;
    }
    source += char;
    i += 1;
  }
  return { source, fields };
}

/** Walks the parsed tree against the allow-lists; returns the first problem found. */
function checkTree(root: MathNode, symbolCount: number): FormulaError | null {
  let problem: FormulaError | null = null;
  const set = (error: FormulaError) => {
    problem ??= error;
  };
  root.traverse((node, _path, parent) => {
    switch (node.type) {
      case 'ConstantNode': {
        const value = (node as unknown as { value: unknown }).value;
        if (typeof value !== 'number' && typeof value !== 'boolean')
          set({
            problem: 'string_literal',
            message: 'Only numbers and true/false are allowed as constants.',
          });
        return;
      }
      case 'SymbolNode': {
        const name = (node as unknown as { name: string }).name;
        const isCallee =
          parent?.type === 'FunctionNode' && (parent as unknown as { fn: MathNode }).fn === node;
        if (isCallee) return; // judged at the FunctionNode
        const match = /^__f(\d+)$/.exec(name);
        if (!match || Number(match[1]) >= symbolCount)
          set({ problem: 'forbidden_construct', subject: name, message: `${name} cannot be used here.` });
        return;
      }
      case 'FunctionNode': {
        const fn = (node as unknown as { fn: MathNode }).fn;
        const name = fn.type === 'SymbolNode' ? (fn as unknown as { name: string }).name : '';
        if (ALLOWED_FUNCTIONS.has(name)) return;
        if (FORBIDDEN_FUNCTIONS.has(name))
          set({
            problem: 'forbidden_function',
            subject: name,
            message: `The function ${name} is not allowed in formulas.`,
          });
        else if (name === '')
          set({ problem: 'forbidden_construct', message: 'Only named functions may be called.' });
        else set({ problem: 'unknown_function', subject: name, message: `Unknown function ${name}.` });
        return;
      }
      case 'OperatorNode': {
        const fn = (node as unknown as { fn: string }).fn;
        if (!ALLOWED_OPERATORS.has(fn))
          set({ problem: 'forbidden_construct', subject: fn, message: `The operator ${fn} is not allowed.` });
        return;
      }
      case 'ParenthesisNode':
      case 'ConditionalNode':
        return;
      default:
        // Assignments, blocks (;), property access (.constructor), indexing, objects, arrays, ranges,
        // function definitions: nothing a formula over numbers needs, and the ways out of a sandbox.
        set({
          problem: 'forbidden_construct',
          subject: node.type,
          message: `${node.type} is not allowed in formulas.`,
        });
    }
  });
  return problem;
}

function usesSymbols(node: MathNode): boolean {
  return (
    node.filter(
      (child) => child.type === 'SymbolNode' && /^__f\d+$/.test((child as unknown as { name: string }).name),
    ).length > 0
  );
}

/** A divisor (or modulus) that is constant and zero is refused up front; 1 / (a - a) is caught at run time. */
function checkConstantDivisors(root: MathNode): FormulaError | null {
  for (const node of root.filter((n) => n.type === 'OperatorNode')) {
    const operator = node as unknown as { fn: string; args: MathNode[] };
    if (operator.fn !== 'divide' && operator.fn !== 'mod') continue;
    const divisor = operator.args[1];
    if (!divisor || usesSymbols(divisor)) continue;
    if (Number(divisor.compile().evaluate({})) === 0)
      return { problem: 'division_by_zero', subject: divisor.toString(), message: 'Division by zero.' };
  }
  return null;
}

function toFinite(result: unknown): number | null {
  if (typeof result === 'boolean') return result ? 1 : 0;
  return typeof result === 'number' && Number.isFinite(result) ? result : null;
}

/**
 * Parses and checks a formula. `knownFields`, when given, is the set of names the formula may read (the
 * device's data fields and its virtual fields); an unknown name is refused.
 */
export function compileFormula(text: string, knownFields?: ReadonlySet<string>): CompileResult {
  if (text.trim() === '') return fail('empty', 'The formula is empty.');
  if (text.length > FORMULA_MAX) return fail('too_long', `A formula has at most ${FORMULA_MAX} characters.`);
  const rewritten = rewriteReferences(text);
  if ('problem' in rewritten) return { ok: false, error: rewritten };
  const { source, fields } = rewritten;
  if (knownFields) {
    const unknown = fields.find((field) => !knownFields.has(field));
    if (unknown !== undefined) return fail('unknown_field', `Unknown data field ${unknown}.`, unknown);
  }
  let root: MathNode;
  try {
    root = parseFormula(source);
  } catch (error) {
    return fail('syntax', (error as Error).message);
  }
  const problem = checkTree(root, fields.length) ?? checkConstantDivisors(root);
  if (problem) return { ok: false, error: problem };
  const code = root.compile();
  if (fields.length === 0 && toFinite(code.evaluate({})) === null)
    return fail('non_finite', 'The formula does not give a finite number.');
  const names = fields.map((_, index) => `__f${index}`);
  return {
    ok: true,
    formula: {
      fields,
      evaluate(values) {
        const scope: Record<string, number> = {};
        for (let index = 0; index < names.length; index++)
          scope[names[index] as string] = values[index] as number;
        try {
          return toFinite(code.evaluate(scope));
        } catch {
          // mathjs throws for domain errors of some functions; the value is simply not computable.
          return null;
        }
      },
    },
  };
}
