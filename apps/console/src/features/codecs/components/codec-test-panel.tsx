import { PlayIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { type CodecTestRequest, type CodecTestResult, useTestCodec } from '../api/codecs';
import type { CodeError } from './code-editor';

type Operation = CodecTestRequest['operation'];

/**
 * Runs the editor's source on test input, as The Things Stack's payload formatter test does: bytes (hex
 * or base64) and fPort for decodeUplink / decodeDownlink, a JSON input for encodeDownlink. Decode and
 * encode sit side by side; an error with a line is handed to the editor to mark.
 */
export function CodecTestPanel({
  script,
  onError,
}: {
  script: string;
  onError: (error: CodeError | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="codec-test-panel">
      <TestCard script={script} onError={onError} operations={['decodeUplink', 'decodeDownlink']} />
      <TestCard script={script} onError={onError} operations={['encodeDownlink']} />
      <p className="text-muted-foreground text-xs lg:col-span-2">{t('codecs.test.hint')}</p>
    </div>
  );
}

function TestCard({
  script,
  onError,
  operations,
}: {
  script: string;
  onError: (error: CodeError | null) => void;
  operations: Operation[];
}) {
  const { t } = useTranslation();
  const test = useTestCodec();
  const [operation, setOperation] = useState<Operation>(operations[0]!);
  const [bytes, setBytes] = useState('');
  const [fPort, setFPort] = useState('1');
  const [input, setInput] = useState('{\n  "data": {}\n}');
  const [invalidInput, setInvalidInput] = useState(false);
  const [result, setResult] = useState<CodecTestResult | null>(null);
  const encode = operation === 'encodeDownlink';
  const id = `codec-test-${operations[0]}`;

  const run = () => {
    let parsed: Record<string, unknown> | undefined;
    if (encode) {
      try {
        parsed = JSON.parse(input) as Record<string, unknown>;
        setInvalidInput(false);
      } catch {
        setInvalidInput(true);
        return;
      }
    }
    const port = Number(fPort);
    test.mutate(
      {
        script,
        operation,
        ...(encode ? { input: parsed } : { bytes }),
        ...(Number.isInteger(port) && fPort.trim() !== '' ? { f_port: port } : {}),
      },
      {
        onSuccess: (answer) => {
          setResult(answer);
          onError(answer.line === undefined ? null : { line: answer.line, message: answer.errors[0] ?? '' });
        },
      },
    );
  };

  return (
    <Card className="flex flex-col gap-3 p-4" data-testid={`${id}`}>
      <div className="flex gap-2">
        {operations.map((op) => (
          <Button
            key={op}
            type="button"
            size="sm"
            variant={op === operation ? 'default' : 'outline'}
            onClick={() => setOperation(op)}
            data-testid={`codec-test-op-${op}`}
          >
            {t(`codecs.test.${op}`)}
          </Button>
        ))}
      </div>
      {encode ? (
        <div className="flex flex-col gap-1">
          <Label htmlFor={`${id}-input`}>{t('codecs.test.input')}</Label>
          <textarea
            id={`${id}-input`}
            className="min-h-24 rounded-md border p-2 font-mono text-sm"
            value={input}
            onChange={(e) => setInput(e.target.value)}
            data-testid="codec-test-input"
          />
          {invalidInput && <p className="text-destructive text-sm">{t('codecs.test.input-invalid')}</p>}
        </div>
      ) : (
        <div className="flex flex-col gap-1">
          <Label htmlFor={`${id}-bytes`}>{t('codecs.test.bytes')}</Label>
          <Input
            id={`${id}-bytes`}
            className="font-mono"
            placeholder="01 75 5C"
            value={bytes}
            onChange={(e) => setBytes(e.target.value)}
            data-testid="codec-test-bytes"
          />
        </div>
      )}
      <div className="flex items-end gap-2">
        <div className="flex w-24 flex-col gap-1">
          <Label htmlFor={`${id}-fport`}>fPort</Label>
          <Input
            id={`${id}-fport`}
            value={fPort}
            onChange={(e) => setFPort(e.target.value)}
            data-testid="codec-test-fport"
          />
        </div>
        <Button type="button" onClick={run} disabled={test.isPending} data-testid="codec-test-run">
          <PlayIcon />
          {t('codecs.test.run')}
        </Button>
      </div>
      {result && <TestResult result={result} />}
    </Card>
  );
}

function TestResult({ result }: { result: CodecTestResult }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="codec-test-result">
      {result.errors.length > 0 && (
        <ul className="text-destructive" data-testid="codec-test-errors">
          {result.errors.map((e) => (
            <li key={e}>
              {result.line === undefined
                ? e
                : t('codecs.test.error-at-line', { line: result.line, error: e })}
            </li>
          ))}
        </ul>
      )}
      {result.warnings.length > 0 && (
        <ul className="text-amber-600" data-testid="codec-test-warnings">
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {result.data !== undefined && (
        <pre className="bg-muted overflow-auto rounded p-2 font-mono" data-testid="codec-test-data">
          {JSON.stringify(result.data, null, 2)}
        </pre>
      )}
      {result.bytes !== undefined && (
        <p className="font-mono" data-testid="codec-test-bytes-out">
          {t('codecs.test.encoded', {
            bytes: result.bytes.replace(/(..)(?!$)/g, '$1 '),
            port: result.f_port,
          })}
        </p>
      )}
    </div>
  );
}
