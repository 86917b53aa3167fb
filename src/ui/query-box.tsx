import { useRef, useState } from 'preact/hooks';
import { complete, type AttributeInfo, type Completions } from './query-text.ts';

/** Props of {@link QueryBox}. */
interface QueryBoxProps {
  value: string;
  onInput: (text: string) => void;
  /** Enter with no completion chosen. */
  onSubmit: () => void;
  attributes: AttributeInfo[];
  /** Values on screen per attribute, offered after an operator. */
  seen?: Record<string, string[]>;
  /** A server error about the query: its message, the query it was about and the 1-based column there. */
  error?: { message: string; query: string; column?: number };
}

/**
 * The list's query box: a text input in the visibility language with a menu of completions
 * (attribute names, the operators of an attribute's type, values, connectives) under the cursor.
 * Arrow keys move in the menu, Enter or Tab takes the choice, Escape closes it. A server error
 * is shown under the box with a caret at its column.
 */
export function QueryBox({ value, onInput, onSubmit, attributes, seen, error }: QueryBoxProps) {
  const input = useRef<HTMLInputElement>(null);
  const [menu, setMenu] = useState<Completions | undefined>();
  const [active, setActive] = useState(0);

  const refresh = (text: string, cursor: number) => {
    const c = complete(text, cursor, attributes, { now: Date.now(), ...(seen ? { seen } : {}) });
    setMenu(c.items.length ? c : undefined);
    setActive(0);
  };
  const take = (i: number) => {
    if (!menu) return;
    const item = menu.items[i]!;
    const spaced = item.insert.endsWith('(') ? item.insert : `${item.insert} `;
    const text = value.slice(0, menu.from) + spaced + value.slice(menu.to).replace(/^ /, '');
    const cursor = menu.from + spaced.length;
    onInput(text);
    requestAnimationFrame(() => {
      input.current?.setSelectionRange(cursor, cursor);
      refresh(text, cursor);
    });
  };
  // Enter takes a completion only once the person has moved in the menu; otherwise it searches.
  const [moved, setMoved] = useState(false);
  const onKeyDown = (e: KeyboardEvent) => {
    if (menu && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      setMoved(true);
      setActive((active + (e.key === 'ArrowDown' ? 1 : menu.items.length - 1)) % menu.items.length);
    } else if (menu && (e.key === 'Tab' || e.key === 'Enter' && moved)) {
      e.preventDefault();
      setMoved(false);
      take(active);
    } else if (e.key === 'Escape') {
      setMenu(undefined);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      setMenu(undefined);
      onSubmit();
    }
  };

  return (
    <div class="querybox">
      <input ref={input} class="query mono" name="q" autocomplete="off" spellcheck={false} role="combobox" aria-expanded={!!menu}
        aria-invalid={!!error} placeholder="WorkflowType = 'order' AND ExecutionStatus = 'Running' ORDER BY StartTime DESC" value={value}
        onInput={(e) => { onInput(e.currentTarget.value); setMoved(false); refresh(e.currentTarget.value, e.currentTarget.selectionStart ?? e.currentTarget.value.length); }}
        onFocus={(e) => refresh(e.currentTarget.value, e.currentTarget.selectionStart ?? value.length)}
        onClick={(e) => refresh(e.currentTarget.value, e.currentTarget.selectionStart ?? value.length)}
        onBlur={() => setMenu(undefined)}
        onKeyDown={onKeyDown} />
      {menu && (
        // The box is monospaced, so `ch` puts the menu under the word it completes.
        <ul class="completions mono" role="listbox" data-testid="completions" style={{ left: `min(calc(${menu.from}ch + 9px), calc(100% - 280px))` }}>
          {menu.items.map((c, i) => (
            <li key={c.label} role="option" aria-selected={i === active} class={i === active ? 'on' : ''}
              onMouseDown={(e) => { e.preventDefault(); take(i); }}>
              <span class="mono">{c.label}</span>{c.detail && <span class="note">{c.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <div class="query-error" data-testid="query-error" role="alert">
          <span class="error">{error.message}</span>
          {error.column !== undefined && <pre class="caret">{`${error.query.replace(/[\r\n\t]/g, ' ')}\n${' '.repeat(Math.max(0, error.column - 1))}^`}</pre>}
        </div>
      )}
    </div>
  );
}
