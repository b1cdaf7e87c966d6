import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { cropCentre, croppedImage, drawCrop, MAX_ZOOM, squareCrop } from './crop';

/** The crop area's side on screen, in CSS pixels; its canvas holds twice as many for sharp screens. */
const PREVIEW_SIDE = 240;
const ARROW_STEP = 10;
const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-ARROW_STEP, 0],
  ArrowRight: [ARROW_STEP, 0],
  ArrowUp: [0, -ARROW_STEP],
  ArrowDown: [0, ARROW_STEP],
};

/** Chooses the square of a picked image that becomes the avatar: drag (or arrow keys) to move, zoom. */
export function AvatarCropDialog({
  image,
  onCancel,
  onSave,
}: {
  image: HTMLImageElement;
  onCancel: () => void;
  onSave: (cropped: Blob) => Promise<void>;
}) {
  const { t } = useTranslation();
  // State, not a ref: the dialog's portal mounts the canvas a render after the dialog.
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  const dragFrom = useRef<{ x: number; y: number } | null>(null);
  const [zoom, setZoom] = useState(1);
  const [centre, setCentre] = useState({ x: image.naturalWidth / 2, y: image.naturalHeight / 2 });
  const [saving, setSaving] = useState(false);
  const crop = useMemo(
    () => squareCrop(image.naturalWidth, image.naturalHeight, zoom, centre),
    [image, zoom, centre],
  );

  useEffect(() => {
    if (canvas) drawCrop(canvas, image, crop, PREVIEW_SIDE * 2);
  }, [canvas, image, crop]);

  /** Moves the photo under the crop by a distance on screen: the crop goes the other way. */
  const pan = (dx: number, dy: number) => {
    const scale = crop.side / (canvas?.clientWidth || PREVIEW_SIDE);
    const from = cropCentre(crop);
    setCentre({ x: from.x - dx * scale, y: from.y - dy * scale });
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    dragFrom.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!dragFrom.current) return;
    pan(event.clientX - dragFrom.current.x, event.clientY - dragFrom.current.y);
    dragFrom.current = { x: event.clientX, y: event.clientY };
  };
  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const step = ARROWS[event.key];
    if (!step) return;
    event.preventDefault();
    pan(...step);
  };

  const save = async () => {
    setSaving(true);
    try {
      await onSave(await croppedImage(image, crop));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !saving && onCancel()}
      title={t('profile.crop_title')}
      description={t('profile.crop_lead')}
    >
      <div className="mt-5 flex flex-col items-center gap-5">
        <div
          className="relative overflow-hidden rounded-2xl bg-surface-2"
          style={{ width: PREVIEW_SIDE, height: PREVIEW_SIDE }}
        >
          <canvas
            ref={setCanvas}
            tabIndex={0}
            role="img"
            aria-label={t('profile.crop_area')}
            className="size-full cursor-grab touch-none focus:outline-none active:cursor-grabbing"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={() => (dragFrom.current = null)}
            onPointerCancel={() => (dragFrom.current = null)}
            onKeyDown={onKeyDown}
          />
          {/* Dims the corners the round avatar leaves out. */}
          <div
            aria-hidden
            className="pointer-events-none absolute inset-0 rounded-full shadow-[0_0_0_999px_rgb(0_0_0/0.45)] ring-2 ring-white/80"
          />
        </div>
        <label className="flex w-full items-center gap-3 text-sm font-medium text-ink">
          {t('profile.crop_zoom')}
          <input
            type="range"
            min={1}
            max={MAX_ZOOM}
            step={0.01}
            value={zoom}
            onChange={(event) => setZoom(Number(event.target.value))}
            className="flex-1 accent-accent"
          />
        </label>
        <div className="flex w-full justify-end gap-2">
          <Button variant="ghost" onClick={onCancel} disabled={saving}>
            {t('profile.crop_cancel')}
          </Button>
          <Button onClick={() => void save()} loading={saving}>
            {t('profile.crop_save')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
