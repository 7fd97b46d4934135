import { AVATAR_ACCEPT, AVATAR_MAX_BYTES } from '@pixel-atlas/contracts/plots';
import { useId, useState } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import Cropper from 'react-easy-crop';
import { buttonClassName } from '../../components/button-styles.ts';
import { FieldError, fieldErrorId } from '../../components/form-field.tsx';
import { toast } from '../../hooks/use-toast.ts';
import { AVATAR_START_ZOOM, cropAvatar, isUsableAvatarFile, readFileAsDataUrl, type AvatarShape, type CropArea } from './avatar-image.ts';
import { CLAIM_TOASTS } from './claim-messages.ts';
import { notAnImageMessage, rejectionMessage } from './dropzone-errors.ts';

interface AvatarUploaderProps {
  /** The saved avatar (data URL), or null while none is saved. */
  value: string | null;
  onChange: (dataUrl: string | null) => void;
  /** 'round': the popup's circular crop; 'square': /claim's square crop. */
  shape: AvatarShape;
  /** Shown under the uploader (spec: field errors under each field). */
  error?: string;
}

/**
 * Choose or drop one image (jpeg/png/gif, at most 1 MB), crop it, and 'Save Avatar' before it counts.
 * Until it is saved the parent sees no avatar, so a claim cannot go out with an unsaved crop.
 */
export function AvatarUploader({ value, onChange, shape, error }: AvatarUploaderProps) {
  const id = useId();
  const [source, setSource] = useState<string | null>(null);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(AVATAR_START_ZOOM);
  const [area, setArea] = useState<CropArea | null>(null);
  const [saving, setSaving] = useState(false);

  const onDropAccepted = async ([file]: File[]) => {
    if (!file) return;
    try {
      if (!(await isUsableAvatarFile(file))) {
        toast({ title: 'Upload Failed', description: notAnImageMessage(file.name), variant: 'destructive' });
        return;
      }
      setSource(await readFileAsDataUrl(file));
      setCrop({ x: 0, y: 0 });
      setZoom(AVATAR_START_ZOOM);
      setArea(null);
    } catch {
      toast({ title: 'Upload Failed', description: 'File upload failed', variant: 'destructive' });
    }
  };
  const onDropRejected = (rejections: FileRejection[]) => {
    toast({ title: 'Upload Failed', description: rejectionMessage(rejections, { maxSize: AVATAR_MAX_BYTES }), variant: 'destructive' });
  };
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: AVATAR_ACCEPT,
    maxSize: AVATAR_MAX_BYTES,
    maxFiles: 1,
    multiple: false,
    onDropAccepted: (files) => void onDropAccepted(files),
    onDropRejected,
    // The zone is no focus stop of its own: the button inside it is.
    noKeyboard: true,
  });

  const save = async () => {
    if (!source) return;
    setSaving(true);
    try {
      onChange(await cropAvatar(source, area, shape));
      setSource(null);
      toast(CLAIM_TOASTS.avatarSaved);
    } catch {
      toast(CLAIM_TOASTS.avatarSaveFailed);
    } finally {
      setSaving(false);
    }
  };

  const hintId = `${id}-hint`;
  const errorId = fieldErrorId(id, error);
  const roundClass = shape === 'round' ? 'rounded-full' : '';

  return (
    <div className="grid gap-2" role="group" aria-labelledby={`${id}-label`} aria-describedby={[hintId, errorId].filter(Boolean).join(' ')}>
      <span id={`${id}-label`} className="text-sm font-semibold text-ink">
        Avatar
      </span>
      {source ? (
        <div className="grid gap-3">
          <div className="relative h-56 w-full overflow-hidden border-2 border-border bg-black" data-testid="avatar-cropper">
            <Cropper
              image={source}
              crop={crop}
              zoom={zoom}
              aspect={1}
              cropShape={shape === 'round' ? 'round' : 'rect'}
              showGrid={false}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, pixels) => setArea(pixels)}
            />
          </div>
          <label className="flex items-center gap-3 text-sm text-ink-muted">
            Zoom
            <input
              type="range"
              min={1}
              max={3}
              step={0.05}
              value={zoom}
              onChange={(event) => setZoom(Number(event.target.value))}
              className="flex-1 accent-gold"
            />
          </label>
          <div className="flex flex-wrap gap-3">
            <button type="button" className={buttonClassName('primary', 'sm')} disabled={saving} onClick={() => void save()}>
              Save Avatar
            </button>
            <button type="button" className={buttonClassName('secondary', 'sm')} disabled={saving} onClick={() => setSource(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div className="flex items-center gap-4">
          {value ? (
            <img src={value} alt="Your saved avatar" className={`size-16 shrink-0 border-2 border-black object-cover ${roundClass}`} />
          ) : null}
          {/*
            The drop zone is a plain drop target, not a button: a role="button" around the file input was a
            nested interactive control whose label did not match its text. The real control is the visible
            button; its click bubbles to the zone, which opens the file dialog (so there is one handler).
          */}
          <div
            {...getRootProps({
              className:
                'flex min-h-16 flex-1 cursor-pointer flex-wrap items-center justify-center gap-x-3 gap-y-2 border-2 border-dashed px-3 py-3 text-center text-sm ' +
                (isDragActive
                  ? 'border-gold bg-panel-raised text-ink'
                  : error
                    ? 'border-danger-edge text-ink-muted'
                    : 'border-border text-ink-muted'),
            })}
          >
            <input {...getInputProps({ 'aria-label': 'Avatar image file', 'aria-hidden': true })} />
            <span>{isDragActive ? 'Drop the image here' : 'Drag an image here, or'}</span>
            <button type="button" className={buttonClassName('secondary', 'sm')} aria-describedby={hintId}>
              {value ? 'Choose another image' : 'Choose an image'}
            </button>
          </div>
        </div>
      )}
      <p id={hintId} className="text-xs text-ink-muted">
        JPG, PNG or GIF (max 1MB)
      </p>
      <FieldError id={errorId} error={error} />
    </div>
  );
}
