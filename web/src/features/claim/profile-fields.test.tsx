import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ProfileFields } from './profile-fields.tsx';
import { validateProfile, type ProfileErrors, type ProfileDraft } from './profile-validation.ts';

const INVALID_LINK = 'Please enter a valid http or https URL';
const INVISIBLE_MESSAGE = "can't contain invisible characters (zero-width spaces or text-direction marks)";

/** The fields as a form uses them: errors from its last submit, cleared per field while typing. */
function Form() {
  const [draft, setDraft] = useState<ProfileDraft>({ display_name: '', message: '', link: '' });
  const [errors, setErrors] = useState<ProfileErrors>({});
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setErrors(validateProfile(draft));
      }}
    >
      <ProfileFields
        draft={draft}
        errors={errors}
        onChange={(field, value) => {
          setDraft((current) => ({ ...current, [field]: value }));
          setErrors((current) => ({ ...current, [field]: undefined }));
        }}
      />
      <button type="submit">Submit</button>
    </form>
  );
}

describe('profile validation', () => {
  it.each(['https://exa mple.com', 'https://exa\tmple.com', 'https://a..b.com', 'exa mple.com', 'ftp://example.com'])(
    'refuses the link %j',
    (link) => {
      expect(validateProfile({ display_name: 'Ada Pixel', message: '', link })).toEqual({ link: INVALID_LINK });
    },
  );

  const INVISIBLE = "can't contain invisible characters (zero-width spaces or text-direction marks)";
  it.each([
    ['NUL', '\u0000', "can't contain control characters"],
    ['a C1 control', '\u009B', "can't contain control characters"],
    ['a bidi override', '\u202E', INVISIBLE],
    ['a bidi isolate', '\u2068', INVISIBLE],
    ['a zero-width space', '\u200B', INVISIBLE],
    ['a zero-width joiner between letters', '\u200D', INVISIBLE],
    ['a word joiner', '\u2060', INVISIBLE],
    ['a BOM', '\uFEFF', INVISIBLE],
  ])('refuses %s in the name and the message, as the server does', (_name, char, problem) => {
    expect(validateProfile({ display_name: `Ada${char} Pixel`, message: `Hi${char} there`, link: '' })).toEqual({
      display_name: `Display name ${problem}`,
      message: `Message ${problem}`,
    });
  });

  it('lets line breaks into the message, an emoji sequence with its joiner and Persian with its non-joiner anywhere', () => {
    expect(validateProfile({ display_name: 'Dev 👩\u200D💻', message: 'One\ntwo', link: '' })).toEqual({});
    expect(validateProfile({ display_name: 'می\u200Cخواهم', message: '', link: '' })).toEqual({});
    expect(validateProfile({ display_name: 'Ada\nPixel', message: '', link: '' })).toEqual({
      display_name: 'Display name must be on one line',
    });
  });

  it('refuses a link with a user name or password', () => {
    for (const link of ['https://user:pw@example.com', 'https://a.com\\@b.example']) {
      expect(validateProfile({ display_name: 'Ada Pixel', message: '', link })).toEqual({
        link: "Links can't contain a user name or password",
      });
    }
  });

  it('accepts a good link and no link', () => {
    expect(validateProfile({ display_name: 'Ada Pixel', message: '', link: 'https://ada.example/shop' })).toEqual({});
    expect(validateProfile({ display_name: 'Ada Pixel', message: '', link: '' })).toEqual({});
  });
});

describe('profile fields', () => {
  it("puts a field error under the link as soon as 'https://exa mple.com' is left, and clears it while typing", async () => {
    const user = userEvent.setup();
    render(<Form />);
    const link = screen.getByLabelText('Link (optional)');
    await user.type(link, 'https://exa mple.com');
    expect(screen.queryByText(INVALID_LINK)).toBeNull();
    await user.tab();
    expect(screen.getByText(INVALID_LINK)).toBeTruthy();
    expect(link.getAttribute('aria-invalid')).toBe('true');
    expect(link.getAttribute('aria-describedby')).toBe(screen.getByText(INVALID_LINK).id);

    await user.clear(link);
    await user.type(link, 'https://example.com');
    expect(screen.queryByText(INVALID_LINK)).toBeNull();
    await user.tab();
    expect(screen.queryByText(INVALID_LINK)).toBeNull();
  });

  it('names an invisible character in the display name under the field on submit', async () => {
    const user = userEvent.setup();
    render(<Form />);
    await user.type(screen.getByLabelText('Display name'), 'Ada\u202E Pixel');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const message = screen.getByText(`Display name ${INVISIBLE_MESSAGE}`);
    expect(screen.getByLabelText('Display name').getAttribute('aria-describedby')).toBe(message.id);
  });

  it('judges empty fields only on submit, then names each error under its field', async () => {
    const user = userEvent.setup();
    render(<Form />);
    await user.click(screen.getByLabelText('Display name'));
    await user.tab();
    expect(screen.queryByText(/at least 2/)).toBeNull();
    await user.type(screen.getByLabelText('Link (optional)'), 'https://exa mple.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Display name must be at least 2 characters')).toBeTruthy();
    expect(screen.getByText(INVALID_LINK)).toBeTruthy();
  });
});
