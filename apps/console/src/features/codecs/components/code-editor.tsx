import { javascript } from '@codemirror/lang-javascript';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

export interface CodeError {
  line: number;
  message: string;
}

/**
 * A CodeMirror 6 editor for codec JavaScript: syntax highlighting, and the error the sandbox reported
 * marked at its line (a lint diagnostic: underlined, with the message in the gutter).
 */
export function CodeEditor({
  value,
  onChange,
  error,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  error: CodeError | null;
  testId?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  // The editor owns its text once created; a new codec remounts it (key on the caller's side).
  // biome-ignore lint/correctness/useExhaustiveDependencies: created once per mount, not per keystroke
  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          javascript(),
          lintGutter(),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const diagnostics: Diagnostic[] = [];
    if (error && error.line >= 1 && error.line <= editor.state.doc.lines) {
      const line = editor.state.doc.line(error.line);
      diagnostics.push({
        from: line.from,
        to: Math.max(line.to, line.from),
        severity: 'error',
        message: error.message,
      });
    }
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [error]);

  return (
    <div
      ref={host}
      className="min-h-80 overflow-auto rounded-md border text-sm"
      data-testid={testId}
      data-error-line={error?.line ?? ''}
    />
  );
}
