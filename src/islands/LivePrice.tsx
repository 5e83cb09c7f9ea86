import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { formatPercent, formatPrice, MISSING_VALUE } from '../lib/format.ts';
import { $livePrice, liveFigures, watchLivePrice, type LiveStream } from '../lib/stores/live-price.ts';

/** The screen reader hears the live price at most this often; the number itself is not announced. */
const ANNOUNCE_EVERY_MS = 30_000;

export interface LivePriceProps {
  symbol: string;
  stream: LiveStream;
  /** The lowest data tier that may open the stream. */
  tier: number;
  builtApiUrl: string;
  /** The server-rendered figures, shown until (and unless) the stream sends a trade. */
  price: number | null;
  change: number | null;
  changePercentage: number | null;
  digits: number;
  /** "As of …" of the server-rendered price. */
  asOf: string | undefined;
}

function direction(change: number | null): 'up' | 'down' | 'flat' {
  if (change === null || change === 0) return 'flat';
  return change > 0 ? 'up' : 'down';
}

/**
 * The symbol header's price and change, server-rendered in the same elements the live figures then
 * fill, so nothing moves when the stream starts. Only signed-in visitors whose plan includes the
 * symbol's stream get a socket; everybody else keeps the rendered figures.
 */
export default function LivePrice(props: LivePriceProps): ReactElement {
  const { symbol, stream, tier, builtApiUrl, digits } = props;
  const live = useStore($livePrice);
  const following = live.symbol === symbol && live.status === 'live';
  const figures = liveFigures(props, following ? live.price : null);
  const [announcement, setAnnouncement] = useState('');
  const announcedAt = useRef(0);

  useEffect(() => watchLivePrice({ symbol, stream, tier, builtApiUrl }), [symbol, stream, tier, builtApiUrl]);

  const priceText = formatPrice(figures.price, undefined, digits);
  const changeText = formatPercent(figures.changePercentage);
  useEffect(() => {
    if (!following || figures.price === null) return;
    const now = Date.now();
    if (now - announcedAt.current < ANNOUNCE_EVERY_MS) return;
    announcedAt.current = now;
    setAnnouncement(`Live price ${priceText}, ${changeText}`);
  }, [following, figures.price, priceText, changeText]);

  const sign = figures.change !== null && figures.change > 0 ? '+' : '';
  return (
    <div className="price" data-direction={direction(figures.change)} data-live={following ? 'on' : 'off'}>
      <p className="last" aria-live="off">
        <span className="visually-hidden">Price </span>
        <data value={figures.price ?? ''}>{priceText}</data>
      </p>
      <p className="change" aria-live="off">
        <span className="visually-hidden">Change </span>
        {figures.change === null
          ? MISSING_VALUE
          : `${sign}${formatPrice(figures.change, undefined, digits)}`}{' '}
        <span>({changeText})</span>
      </p>
      {following ? (
        <p className="as-of">
          <span className="live-label">Live · demo</span>
        </p>
      ) : (
        props.asOf !== undefined && <p className="as-of">As of {props.asOf} UTC</p>
      )}
      <span className="visually-hidden" role="status">
        {announcement}
      </span>
    </div>
  );
}
