import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { internationalDigits } from '../../core/destinations/dialled-number.js'

const test = suite('core/destinations: a dialled number as international digits (contract 17.2)')

test('one London number however it is written: `+` and `00` are international, a trunk (0) after either is not dialled', () => {
  const variants = [
    '020 7946 0000',
    '(020) 7946-0000',
    '+44 20 7946 0000',
    '+44 (0)20 7946 0000',
    '+44-(0)-20-7946-0000',
    '+44(0)2079460000',
    '0044 20 7946 0000',
    '0044 (0)20 7946 0000',
    '0044(0)2079460000',
    '00 44 (0) 20 7946 0000',
    '442079460000',
  ]
  for (const v of variants) assert.is(internationalDigits(v, '44'), '442079460000', v)
})

test('a (0) elsewhere is left to the digits; what is not a number is none', () => {
  assert.is(internationalDigits('(0)20 7946 0000', '44'), '442079460000', 'national: the parentheses go, the 0 is the trunk')
  assert.is(internationalDigits('+1 (0)', '44'), '1')
  assert.is(internationalDigits('00', '44'), null)
  assert.is(internationalDigits('*21#', '44'), null)
})

test.run()
