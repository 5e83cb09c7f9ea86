import { useId, useState, type KeyboardEvent } from 'react';

/** A symbol offered under the field. */
export interface ComboboxOption {
  symbol: string;
  name: string;
  exchange: string;
}

interface Props {
  id: string;
  value: string;
  options: readonly ComboboxOption[];
  /** For a comma list, a pick replaces the last ticker typed. */
  list: boolean;
  invalid: boolean;
  describedBy: string | undefined;
  required: boolean;
  onInput: (value: string) => void;
  onClose: () => void;
}

function picked(current: string, symbol: string, list: boolean): string {
  if (!list) return symbol;
  const items = current.split(',').map((item) => item.trim());
  items[items.length - 1] = symbol;
  return items.join(',');
}

/**
 * A ticker field with suggestions (the ARIA 1.2 combobox pattern: the list follows typing, arrow
 * keys move through it, Enter picks, Escape closes). Any ticker may still be typed freely.
 */
export function SymbolCombobox({
  id,
  value,
  options,
  list,
  invalid,
  describedBy,
  required,
  onInput,
  onClose,
}: Props) {
  const listId = useId();
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const shown = open && options.length > 0;

  const choose = (option: ComboboxOption): void => {
    onInput(picked(value, option.symbol, list));
    setOpen(false);
    setActive(-1);
    onClose();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'ArrowDown' && options.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % options.length);
    } else if (event.key === 'ArrowUp' && options.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index <= 0 ? options.length - 1 : index - 1));
    } else if (event.key === 'Enter' && shown && active >= 0) {
      const option = options[active];
      if (option !== undefined) {
        event.preventDefault();
        choose(option);
      }
    } else if (event.key === 'Escape' && shown) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="symbol-combobox">
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={value}
        required={required}
        aria-required={required}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${String(active)}` : undefined}
        onChange={(event) => {
          onInput(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
        }}
      />
      <ul id={listId} role="listbox" className="symbol-options" hidden={!shown} aria-label="Matching symbols">
        {options.map((option, index) => (
          <li
            key={option.symbol}
            id={`${listId}-${String(index)}`}
            role="option"
            aria-selected={index === active}
            className="symbol-option"
            // Picking with the pointer must not blur the field first (which would close the list).
            onMouseDown={(event) => {
              event.preventDefault();
            }}
            onClick={() => {
              choose(option);
            }}
          >
            <span className="symbol-option-ticker">{option.symbol}</span>
            <span className="symbol-option-name">
              {option.name} · {option.exchange}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
