import { GRID_SIZE, footprintInsideGrid } from '@pixel-atlas/contracts/grid';
import { TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import type { Zone } from '@pixel-atlas/contracts/zones';
import { useState, type FormEvent } from 'react';
import { buttonClassName } from '../../components/button-styles.ts';
import { toast } from '../../hooks/use-toast.ts';
import { AvatarUploader } from './avatar-uploader.tsx';
import { CLAIM_TOASTS } from './claim-messages.ts';
import { checkPosition } from './position-check.ts';
import { PositionFields } from './position-fields.tsx';
import { ProfileFields } from './profile-fields.tsx';
import { validateProfile, type ProfileErrors, type ProfileDraft } from './profile-validation.ts';
import { ZoneRadioGroup } from './zone-radio-group.tsx';

/** Everything the /claim form edits; x and y stay text while typed. */
export interface ClaimDraft extends ProfileDraft {
  zone: Zone;
  x: string;
  y: string;
  avatar_url: string | null;
}

type DraftErrors = ProfileErrors & { position?: string; avatar?: string };

interface ClaimDetailsFormProps {
  tier: Tier;
  draft: ClaimDraft;
  onDraftChange: (draft: ClaimDraft) => void;
  /** The draft passed every check: go to the confirm review. */
  onReview: () => void;
}

/**
 * The /claim form (spec section 2): display name, message, link, avatar (square crop, saved before
 * use), zone and position. Checks everything the server would before the confirm step.
 */
export function ClaimDetailsForm({ tier, draft, onDraftChange, onReview }: ClaimDetailsFormProps) {
  const [errors, setErrors] = useState<DraftErrors>({});
  const [checking, setChecking] = useState(false);
  const update = (patch: Partial<ClaimDraft>, clear: Array<keyof DraftErrors>) => {
    onDraftChange({ ...draft, ...patch });
    setErrors((current) => {
      const next = { ...current };
      for (const key of clear) delete next[key];
      return next;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (checking) return;
    const fieldErrors: DraftErrors = validateProfile(draft);
    const position = parsePosition(draft, tier);
    if (position === 'missing') fieldErrors.position = 'Please choose a position for your plot.';
    else if (position === 'invalid') fieldErrors.position = `The whole plot must fit inside the ${GRID_SIZE}x${GRID_SIZE} map.`;
    setErrors({ ...fieldErrors, ...(draft.avatar_url ? {} : { avatar: 'Please upload and save an avatar for your plot.' }) });
    if (position === 'missing') {
      toast(CLAIM_TOASTS.missingTile);
      return;
    }
    if (Object.keys(fieldErrors).length > 0 || typeof position === 'string') return;
    if (!draft.avatar_url) {
      toast(CLAIM_TOASTS.missingAvatar);
      return;
    }
    setChecking(true);
    // The buyer's own checkout may still hold this spot: 'held' is left to the server to judge.
    const problem = await checkPosition(position.x, position.y, tier, { allowHeld: true });
    setChecking(false);
    if (problem) {
      toast(problem);
      return;
    }
    onReview();
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="pixel-panel grid gap-5 p-6">
      <ProfileFields draft={draft} errors={errors} onChange={(field, value) => update({ [field]: value }, [field])} />
      <AvatarUploader
        value={draft.avatar_url}
        onChange={(avatar) => update({ avatar_url: avatar }, ['avatar'])}
        shape="square"
        error={errors.avatar}
      />
      <ZoneRadioGroup value={draft.zone} onChange={(zone) => update({ zone }, [])} />
      <PositionFields x={draft.x} y={draft.y} tier={tier} error={errors.position} onChange={(position) => update(position, ['position'])} />
      <div className="flex justify-end">
        <button type="submit" className={buttonClassName('primary')} disabled={checking} aria-busy={checking || undefined}>
          {checking ? 'CHECKING...' : 'REVIEW DETAILS'}
        </button>
      </div>
    </form>
  );
}

/** x/y as whole numbers whose footprint fits the grid; 'missing' when either is empty. */
export function parsePosition(draft: Pick<ClaimDraft, 'x' | 'y'>, tier: Tier): { x: number; y: number } | 'missing' | 'invalid' {
  if (draft.x.trim() === '' || draft.y.trim() === '') return 'missing';
  const x = Number(draft.x);
  const y = Number(draft.y);
  if (!Number.isInteger(x) || !Number.isInteger(y)) return 'invalid';
  return footprintInsideGrid({ x, y, size: TIER_SIZE[tier] }) ? { x, y } : 'invalid';
}
