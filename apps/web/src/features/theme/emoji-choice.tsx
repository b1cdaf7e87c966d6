import { EmojiType } from '@atelier/contracts';
import { useTranslation } from 'react-i18next';
import { Emoji, useEmojiType } from '../../components/emoji';
import { ChoiceCards } from '../../components/ui/choice-cards';
import { useUserSettings } from '../session/use-user-settings';

const SAMPLE = '📁';

/** Twemoji's drawings or the device's own emoji, for folder emojis and the emoji picker. */
export function EmojiChoice() {
  const { t } = useTranslation();
  const value = useEmojiType();
  const updateSetting = useUserSettings();
  return (
    <ChoiceCards
      label={t('profile.emoji_type')}
      value={value}
      onChange={(next) => updateSetting('emoji_type', next)}
      choices={EmojiType.options.map((type) => ({
        value: type,
        title: t(`profile.emoji_${type}`),
        description: t(`profile.emoji_${type}_lead`),
        icon: <Emoji value={SAMPLE} type={type} className="text-lg" />,
      }))}
    />
  );
}
