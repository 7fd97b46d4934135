import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ProfileFields } from './profile-fields.tsx';
import { validateProfile, type ProfileErrors, type ProfileDraft } from './profile-validation.ts';

const INVALID_LINK = 'Please enter a valid http or https URL';

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
