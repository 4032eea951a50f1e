import { describe, expect, it } from 'vitest';
import { readModelPicker } from './model-picker.ts';

const rows = (lines: string[]) => lines.map((text) => ({ text, strong: text }));

describe("opencode's model picker (1.18.33, as seen at 110×35)", () => {
  it('reads its search and its matches, name then provider, past the input box drawn at their left', () => {
    const screen = rows([
      '     ▣  Build · Fake Mode    Select model                                     esc                             ',
      '',
      '                             Fake Model                                                                       ',
      '',
      '                           ● Fake Model                                      Fake                             ',
      '                             Fake Model 2                                    Fake                             ',
      '',
      '                  ┃          Connect provider ctrl+a  Favorite ctrl+f                                         ',
      '                  ┃  Ask                                                                                      ',
      '                  ┃  Build · Fake Model Fake                                                                  ',
    ]);
    expect(readModelPicker(screen)).toEqual({
      search: 'Fake Model',
      matches: [
        { name: 'Fake Model', provider: 'Fake' },
        { name: 'Fake Model 2', provider: 'Fake' },
      ],
    });
    expect(readModelPicker(rows(['  ┃  Build · Fake Model Fake', '  ╹▀▀▀▀']))).toBeNull();
  });
});
