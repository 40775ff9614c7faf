import { ArrowUpRight, Palette } from 'lucide-react';
import { usePerson } from '../../app/Guard';
import { PageHeader } from '../../ui/Page';
import { FailureScreen } from '../../ui/Screens';
import { useToasts } from '../../ui/Toasts';
import './uikit.css';
import { Charts, Controls, Surfaces } from './UiKitComponents';
import { Foundations } from './UiKitFoundations';
import { Specimen } from './UiKitParts';

/** /internal/ui: the living reference of Paybench's design tokens and components, for internal admins. */
export function UiKitScreen() {
  const person = usePerson().data?.data;
  const { add } = useToasts();
  if (!person?.isInternalAdmin) {
    return <FailureScreen title="Permission denied" description="You do not have access to this content. Please contact your company admin for support." />;
  }
  return (
    <div className="uikit">
      <PageHeader
        eyebrow="Internal"
        title="UI kit"
        icon={Palette}
        description="Paybench's tokens and components as they are in the product today, light or dark as your system is set. Build new screens from these."
        actions={
          <a className="button" href="#charts">
            Charts
            <ArrowUpRight size={16} aria-hidden="true" />
          </a>
        }
      />

      <Foundations />
      <Controls />
      <Surfaces />
      <Charts />

      <Specimen id="toasts" title="Toasts" source="ui/Toasts.tsx" note="At the bottom, 560 px wide, above the phone's tab bar; each goes after 10 s or when closed.">
        <div className="kit-row">
          {(['success', 'info', 'warning', 'error'] as const).map((type) => (
            <button key={type} type="button" onClick={() => add(type, `A ${type} toast.`)}>
              Show {type}
            </button>
          ))}
        </div>
      </Specimen>
    </div>
  );
}
