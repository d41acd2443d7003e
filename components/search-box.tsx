"use client";

import { useEffect, useId, useRef, useState } from "react";
import { usePendingNavigation } from "./pending-navigation";
import { buttonClass, inputClass } from "./styles";

const DEBOUNCE_MS = 350;

/**
 * A search field whose value lives in the URL: typing updates the view after a short pause
 * (replacing the history entry), Enter or the button commits it as a new entry. Without
 * JavaScript it is a plain GET form that carries the other parameters in hidden fields.
 */
export function SearchBox({
  label,
  placeholder,
  value,
  hrefFor,
  hidden = {},
  name = "q",
}: {
  label: string;
  placeholder: string;
  value: string;
  hrefFor: (query: string) => string;
  hidden?: Record<string, string>;
  /** The query parameter of the search without JavaScript. */
  name?: string;
}) {
  const id = useId();
  const { navigate } = usePendingNavigation();
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  const [requested, setRequested] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The URL changed (back/forward, "clear filters"): show its query, unless it is the one we just asked for.
  if (value !== shown) {
    setShown(value);
    if (value !== requested) setText(value);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  function go(query: string, replace: boolean) {
    clearTimeout(timer.current);
    setRequested(query);
    navigate(hrefFor(query), { replace });
  }

  return (
    <form
      role="search"
      className="flex w-full max-w-md gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        go(text.trim(), false);
      }}
    >
      {Object.entries(hidden).map(([name, hiddenValue]) => (
        <input key={name} type="hidden" name={name} value={hiddenValue} />
      ))}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name={name}
        value={text}
        maxLength={200}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        className={`${inputClass} min-w-0 flex-1`}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => go(next.trim(), true), DEBOUNCE_MS);
        }}
      />
      <button type="submit" className={buttonClass}>
        Search
      </button>
    </form>
  );
}
