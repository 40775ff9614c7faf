import { ChevronDown } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';

export type MenuItem = { label: string; href: string; icon?: ReactNode } | { label: string; onSelect: () => void; icon?: ReactNode; danger?: boolean };

interface MenuProps {
  /** The button's content (its accessible name, unless `label` is given). */
  trigger: ReactNode;
  /** The button's name where its content is only an icon. */
  label?: string;
  items: MenuItem[];
  align?: 'start' | 'end';
  className?: string;
}

/**
 * A menu button (WAI-ARIA menu pattern): Enter, Space or ArrowDown open it on the first item,
 * ArrowUp on the last; arrows, Home and End move; Escape or Tab close it and focus goes back to the
 * button; a click outside closes it. Items are links or actions.
 */
export function Menu({ trigger, label, items, align = 'start', className }: MenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [focusOn, setFocusOn] = useState<'first' | 'last'>('first');

  const itemsOf = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return;
    const all = itemsOf();
    (focusOn === 'last' ? all.at(-1) : all[0])?.focus();
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!list.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open, focusOn]);

  function close(refocus = true) {
    setOpen(false);
    if (refocus) button.current?.focus();
  }
  function onButtonKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setFocusOn(event.key === 'ArrowUp' ? 'last' : 'first');
      setOpen(true);
    }
  }
  function onMenuKey(event: KeyboardEvent<HTMLUListElement>) {
    const all = itemsOf();
    const index = all.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      all[(to + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') close(false);
  }
  return (
    <div className={className ? `menu ${className}` : 'menu'}>
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={label}
        onClick={() => {
          setFocusOn('first');
          setOpen((value) => !value);
        }}
        onKeyDown={onButtonKey}
      >
        {trigger}
        <ChevronDown size={16} aria-hidden="true" />
      </button>
      {open && (
        <ul ref={list} id={menuId} role="menu" className={`menu-list menu-${align}`} onKeyDown={onMenuKey}>
          {items.map((item) => (
            <li key={item.label} role="none">
              {'href' in item ? (
                <Link href={item.href} role="menuitem" tabIndex={-1} className="menu-item" onClick={() => close(false)}>
                  {item.icon}
                  {item.label}
                </Link>
              ) : (
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={item.danger ? 'menu-item danger-text' : 'menu-item'}
                  onClick={() => {
                    close();
                    item.onSelect();
                  }}
                >
                  {item.icon}
                  {item.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
