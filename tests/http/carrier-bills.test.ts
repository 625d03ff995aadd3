import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { bill as runBilling } from '../support/billing.js'

// Contract 17.4: a 12-line bill from Gamma for January 2026, every class, totals worked by hand.
const bill = [
  'productCode,reference,description,quantity,cost',
  'SIP,REF-N1,SIP channels,2,8.00', // 2  F1 by its number's reference: expected 4.00 × 2 = 8.00, matched
  'BB,CIRC-1,Broadband,1,20.005', // 3  F2: expected 20.00, off by 0.005: matched
  'LR-BASIC,LINE-3,Line rental,1,10.00', // 4  F3 by pattern LR-*: matched
  'LR-PREMIUM,LINE-3,Line rental,1,12.00', // 5  F3: expected 10.00, off by 2.00: costDiffers
  'IP,IP-100,Static IP,1,5.00', // 6  F4 by pattern IP-1??: matched
  'IP,IP-101,Static IP,1,6.50', // 7  F4: expected 5.00: costDiffers
  'IP,IP-1000,Static IP,1,5.00', // 8  IP-1?? is two characters: notBilled
  'BB,OLD,Broadband,1,20.00', // 9  F8 ended in December: notBilled
  'XX,REF-N1,Unknown,1,1.00', // 10 no feature has product XX: notBilled
  'SIP,REF-N2,SIP channels,1,4.00', // 11 F7 is Daisy's: notBilled
  'BB,CIRC-1,Broadband again,1,19.98', // 12 F2: off by 0.02: costDiffers
  '"LR-X","LINE-4","Line, rental",1,7.00', // 13 F3 wants LINE-3: notBilled
].join('\n')

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`carrier bill reconciliation (contract 17.4) [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('a 12-line bill: matched, cost differs, not billed, not on the carrier bill, with hand-computed totals; JSON and CSV', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body.id
    const number = async (n: string, carrierReference: string) => (await h.request('POST', `/customers/${c}/numbers`, { number: n, carrierReference })).body.id
    const n1 = await number('01632 940001', 'REF-N1')
    const n2 = await number('01632 940002', 'REF-N2')
    const feature = async (on: string, fields: Record<string, unknown>) => {
      const r = await h.request('POST', `/numbers/${on}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', carrier: 'Gamma', ...fields })
      assert.is(r.status, 201, JSON.stringify(r.body))
      return r.body.id as string
    }
    const f1 = await feature(n1, { carrierProduct: 'SIP', serviceChargeCarrier: '4.00', featureCount: 2 })
    const f2 = await feature(n1, { carrierProduct: 'BB', carrierReference: 'CIRC-1', serviceChargeCarrier: '20.00' })
    const f3 = await feature(n1, { carrierProductMatches: 'LR-*', carrierReference: 'LINE-3', serviceChargeCarrier: '10.00' })
    const f4 = await feature(n1, { carrierProduct: 'IP', carrierReferenceMatches: 'IP-1??', serviceChargeCarrier: '5.00' })
    const f5 = await feature(n1, { carrierProduct: 'HS', carrierReference: 'HS-9', serviceChargeCarrier: '12.50' })
    const f6 = await feature(n1, { carrierProduct: 'HS', carrierReference: 'HS-8', serviceChargeCarrier: '3.00', featureCount: 3 })
    await feature(n2, { carrier: 'Daisy', carrierProduct: 'SIP', serviceChargeCarrier: '4.00' })
    await feature(n1, { carrierProduct: 'BB', carrierReference: 'OLD', serviceChargeCarrier: '20.00', endDate: '2025-12-31' })
    // Billed to the customer in January: F1 9.00, F2 25.00 (and 25.00 in February, outside the
    // month), F4 a year's 365.00 of which January's 31 days are 31.00; invoiced by a run. F1's
    // 100.00 posted after it is not invoiced, so not billed yet.
    const post = async (featureID: string, amount: number, dateFrom: string, dateTo: string) => {
      const t = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Recurring Charge', amount, featureID, transactionDate: dateFrom, dateFrom, dateTo })
      assert.is(t.status, 201, JSON.stringify(t.body))
    }
    await post(f1, 9, '2026-01-01', '2026-01-31')
    await post(f2, 25, '2026-01-01', '2026-01-31')
    await post(f2, 25, '2026-02-01', '2026-02-28')
    await post(f4, 365, '2026-01-01', '2026-12-31')
    await runBilling(h, '2026-02-28')
    await post(f1, 100, '2026-01-01', '2026-01-31')
    const r = await h.request('POST', '/carrierBills?carrier=Gamma&period=2026-01', undefined, { raw: bill, headers: { 'content-type': 'text/csv' } })
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal(
      [r.body.lines, r.body.totalCost, r.body.matchedCount, r.body.matchedCarrierCost, r.body.matchedExpectedCost, r.body.matchedBilled],
      // 8 + 20.005 + 10 + 12 + 5 + 6.5 + 19.98 = 81.485 carrier; 8 + 20 + 10 + 10 + 5 + 5 + 20 = 78 expected;
      // billed per matched line: F1 9 + F2 25 (line 3) + F4 31 (lines 6, 7) + F2 25 (line 12) = 121; total 81.485 + 37 = 118.485.
      [12, 118.485, 7, 81.485, 78, 121],
    )
    assert.equal([r.body.costDiffersCount, r.body.costDiffersCarrierCost, r.body.costDiffersExpectedCost], [3, 38.48, 35]) // 12 + 6.5 + 19.98; 10 + 5 + 20
    assert.equal([r.body.notBilledCount, r.body.notBilledCost], [5, 37]) // 5 + 20 + 1 + 4 + 7
    assert.equal([r.body.notOnCarrierBillCount, r.body.notOnCarrierBillExpectedCost], [2, 21.5]) // 12.50 + 3.00 × 3

    const rec = await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`)
    assert.is(rec.status, 200)
    assert.equal(rec.body.summary.notOnCarrierBill, { count: 2, expectedCost: 21.5 })
    assert.equal(rec.body.matched.map((m: any) => [m.line, m.featureID]), [[2, f1], [3, f2], [4, f3], [5, f3], [6, f4], [7, f4], [12, f2]])
    assert.equal(rec.body.costDiffers.map((m: any) => [m.line, m.cost, m.expectedCost]), [[5, 12, 10], [7, 6.5, 5], [12, 19.98, 20]])
    assert.equal(rec.body.matched.map((m: any) => m.billedAmount), [9, 25, 0, 0, 31, 31, 25])
    assert.equal(rec.body.notBilled.map((m: any) => m.line), [8, 9, 10, 11, 13])
    assert.equal(rec.body.notOnCarrierBill.map((m: any) => [m.featureID, m.expectedCost]), [[f5, 12.5], [f6, 9]])
    assert.equal(rec.body.matched[0], { line: 2, productCode: 'SIP', reference: 'REF-N1', description: 'SIP channels', quantity: 2, cost: 8, featureID: f1, expectedCost: 8, billedAmount: 9 })

    const csv = await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`, undefined, { headers: { accept: 'text/csv' } })
    assert.is(csv.status, 200)
    const rows = csv.text.trim().split('\r\n')
    assert.is(rows[0], 'outcome,line,productCode,reference,description,quantity,cost,periodFrom,periodTo,featureID,expectedCost,billedAmount')
    assert.is(rows.length, 1 + 12 + 2 + 4)
    assert.equal(rows.slice(-4), ['total matched,7,,,,,81.485,,,,78,121', 'total costDiffers,3,,,,,38.48,,,,35,', 'total notBilled,5,,,,,37,,,,,', 'total notOnCarrierBill,2,,,,,,,,,21.5,'])
    assert.ok(rows.includes('notBilled,13,LR-X,LINE-4,"Line, rental",1,7,,,,,'), rows.join('\n'))
  })

  test("the CSV reconciliation neutralises a carrier's text a spreadsheet would run (a leading '), and keeps a credit line's cost numeric", async ({ h }) => {
    const body = ['productCode,reference,description,quantity,cost', `@SUM(1),+cmd|' /C calc'!A0,"=HYPERLINK(""http://evil"",""x"")",1,-21.00`, '-SUM(1),"@A1,B1",=1+1,2,5.00'].join('\n')
    const r = await h.request('POST', '/carrierBills?carrier=Daisy&period=2026-02', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    assert.is(r.status, 201, JSON.stringify(r.body))
    const json = (await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`)).body
    assert.equal(json.notBilled.map((l: any) => [l.productCode, l.reference, l.description, l.cost]), [['@SUM(1)', "+cmd|' /C calc'!A0", '=HYPERLINK("http://evil","x")', -21], ['-SUM(1)', '@A1,B1', '=1+1', 5]], 'stored as sent')
    const csv = await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`, undefined, { headers: { accept: 'text/csv' } })
    const rows = csv.text.split('\r\n').filter((l) => l.startsWith('notBilled,'))
    assert.equal(rows, [`notBilled,2,'@SUM(1),'+cmd|' /C calc'!A0,"'=HYPERLINK(""http://evil"",""x"")",1,-21,,,,,`, `notBilled,3,'-SUM(1),"'@A1,B1",'=1+1,2,5,,,,,`])
  })

  test('a line two features match goes to the lower ID, a pattern feature before an exact one; the other is still on the bill; a later write of a higher ID leaves it', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 940101' })).body.id
    const feature = async (fields: Record<string, unknown>) => {
      const r = await h.request('POST', `/numbers/${n}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', carrier: 'Colt', serviceChargeCarrier: '1.00', ...fields })
      assert.is(r.status, 201, JSON.stringify(r.body))
      return r.body.id as string
    }
    // The pattern feature is matched against every stored line, the exact one by its reference:
    // two routes, and the lower ID must win whichever is written first.
    const wide = await feature({ carrierProduct: 'SIP', carrierReferenceMatches: 'T-*' })
    const exact = await feature({ carrierProduct: 'SIP', carrierReference: 'T-7' })
    const both = await feature({ carrierProductMatches: 'S*', carrierReferenceMatches: 'T-?' })
    const lone = await feature({ carrierProduct: 'BB', carrierReference: 'T-9' })
    const body = 'productCode,reference,cost\nSIP,T-7,1.00\nSIP,T-8,1.00\nSTATIC,T-8,2.00\nBB,T-70,1.00\n'
    const r = await h.request('POST', '/carrierBills?carrier=Colt&period=2026-01', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.lines, r.body.matchedCount, r.body.costDiffersCount, r.body.notBilledCount, r.body.notOnCarrierBillCount], [4, 3, 1, 1, 1])
    const rec = (await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`)).body
    assert.equal(rec.matched.map((m: any) => [m.line, m.featureID]), [[2, wide], [3, wide], [4, both]])
    assert.equal(rec.notOnCarrierBill.map((m: any) => m.featureID), [lone]) // exact matched line 2, taken by the lower ID
    assert.equal([rec.matched[0].featureID, rec.matched[2].featureID], [wide, both])
    // The staged lines keep the lower feature ID whichever write comes first (a pattern feature's
    // matches may be written in several parts, the database keeping the lower ID where they meet).
    const featureIDs = await h.platform.context.store.rehearse(async (store) => {
      const staged = await store.carriers.stageBill()
      await staged.add([2, 3].map((line) => ({ line, productCode: 'SIP', reference: `T-${line}`, description: null, quantity: null, cost: 10000n as never, periodFrom: null, periodTo: null })))
      const match = (line: number, featureID: string) => ({ lineID: String(line), featureID, expectedCost: 0n as never, billedAmount: 0n as never, outcome: 'matched' as const })
      await staged.match([match(2, exact), match(3, exact)])
      await staged.match([match(2, lone), match(3, wide)])
      return (await staged.page(null, 10)).map((l) => l.featureID)
    })
    assert.equal(featureIDs, [exact, wide], 'a higher ID leaves line 2 as it was; a lower ID takes line 3')
  })

  test('a bad line, a bad period or no carrier: 400 naming it, nothing stored', async ({ h }) => {
    const before = (await h.request('GET', '/carrierBills?limit=1000')).body.length
    const storedLines = async () => (await h.platform.context.store.repository('carrierBillLines').list({ where: [], limit: 100_000 })).length
    const linesBefore = await storedLines()
    const post = (query: string, body: string) => h.request('POST', `/carrierBills?${query}`, undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    const bad = await post('carrier=Gamma&period=2026-01', 'productCode,reference,cost\nSIP,R1,1.00\nSIP,R2,lots\n')
    assert.is(bad.status, 400)
    assert.match(bad.body.error, /^line 3: cost "lots"/)
    // Lines are staged in the database a page (5,000) at a time as they are read: a bad line after two pages undoes them.
    const long = `productCode,reference,cost\n${'SIP,R1,1.00\n'.repeat(12_000)}SIP,R2,-\n`
    const late = await post('carrier=Gamma&period=2026-01', long)
    assert.equal([late.status, late.body.error], [400, 'line 12002: cost "-" is not an amount with up to 4 decimals'])
    assert.is(await storedLines(), linesBefore, 'no line of the refused bills is kept')
    // A bad or missing query parameter is 400103 (contract 2), a bad line 400101.
    assert.is(bad.body.error_code, 400101)
    for (const [query, reason] of [['carrier=Gamma&period=2026-13', /period "2026-13"/], ['carrier=Gamma', /period "" is not a month/], ['period=2026-01', /carrier is missing/], ['carrier=%20&period=2026-01', /carrier is missing/], ['carrier=Gama&period=2026-01', /^carrier "Gama" is not one of the presets' carriers$/]] as const) {
      const r = await post(query, 'productCode,reference,cost\n')
      assert.equal([r.status, r.body.error_code], [400, 400103], query)
      assert.match(r.body.error, reason)
    }
    // An unknown carrier's hint lists the carriers there are: a feature's carrier is one of them.
    assert.match((await post('carrier=Gama&period=2026-01', 'productCode,reference,cost\n')).body.hint, /BT Wholesale, Openreach, Gamma, Daisy/)
    // Malformed CSV is the sender's error naming its line (400101), as a usage file's is, not a failure of ours.
    for (const [body, reason] of [
      ['productCode,reference,cost\nSIP,R1,1.00\n"SIP,R2,1.00\n', /^line 3: a quoted field is not closed/],
      ['productCode,reference,cost\nSIP,R"1,1.00\n', /^line 2: Invalid Opening Quote/],
      [`productCode,reference,cost\nSIP,R1,1.00\nSIP,R2,${'x'.repeat(16 * 1024 * 1024)}\n`, /^line 3: the line is longer than 16777216 characters$/],
    ] as const) {
      const r = await post('carrier=Gamma&period=2026-01', body)
      assert.equal([r.status, r.body.error_code], [400, 400101], JSON.stringify(r.body).slice(0, 300))
      assert.match(r.body.error, reason)
      assert.match(r.body.hint, /nothing of it was kept/)
    }
    assert.is(await storedLines(), linesBefore, 'no line of the malformed bills is kept')
    assert.is((await h.request('GET', '/carrierBills?limit=1000')).body.length, before)
  })

  test("?carrier= names a carrier of the presets list, case and spaces ignored: the bill is stored with the list's spelling and reconciled against its features", async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 940601' })).body.id
    const f = await h.request('POST', `/numbers/${n}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', carrier: 'Virgin Media Business', carrierProduct: 'SIP', carrierReference: 'VMB-1', serviceChargeCarrier: '3.00' })
    assert.is(f.status, 201, JSON.stringify(f.body))
    const r = await h.request('POST', '/carrierBills?carrier=%20virgin%20MEDIA%20business%20&period=2026-01', undefined, { raw: 'productCode,reference,cost\nSIP,VMB-1,3.00\n', headers: { 'content-type': 'text/csv' } })
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.carrier, r.body.matchedCount, r.body.notBilledCount, r.body.notOnCarrierBillCount], ['Virgin Media Business', 1, 0, 0])
    const rec = (await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`)).body
    assert.equal(rec.matched.map((m: any) => m.featureID), [f.body.id])
  })

  test('money past what the API accepts (contract 2, 17.4): a line of it, lines adding up past it, or features expected past it are 400101 naming the line or the feature, never a 500; nothing stored', async ({ h }) => {
    const before = (await h.request('GET', '/carrierBills?limit=1000')).body.length
    const post = (carrier: string, ...lines: string[]) =>
      h.request('POST', `/carrierBills?carrier=${carrier}&period=2026-01`, undefined, { raw: ['productCode,reference,cost', ...lines].join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
    const refused = async (error: RegExp, carrier: string, ...lines: string[]) => {
      const r = await post(carrier, ...lines)
      assert.equal([r.status, r.body.error_code], [400, 400101], JSON.stringify(r.body))
      assert.match(r.body.error, error)
    }
    // parseMoney reads 15 integer digits (about 1e19 ten-thousandths), past a bigint column (about 9.2e18).
    await refused(/^line 3: cost "999999999999999.9999" is beyond the largest amount accepted \(99999999999.9999 either way\)/, 'Gamma', 'A,B,1.00', 'A,B,999999999999999.9999')
    await refused(/^line 2: cost "900000000000000" is beyond/, 'Gamma', 'A,B,900000000000000', 'A,C,900000000000000')
    await refused(/^line 2: cost "-100000000000" is beyond/, 'Gamma', 'A,B,-100000000000')
    // Each line within the bound, the charges (or the credits) together past it: every total the bill stores sums some of its lines.
    await refused(/^line 4: the bill's charges add up to more than 99999999999.9999 by this line/, 'Gamma', 'A,B,60000000000', 'A,C,-60000000000', 'A,D,60000000000')
    await refused(/^line 3: the bill's credits add up to more than 99999999999.9999/, 'Gamma', 'A,B,-60000000000', 'A,C,-60000000000')
    // The features' side: serviceChargeCarrier × featureCount past the bound (here past a bigint column too), matched by a line or not on the bill.
    const c = (await h.request('POST', '/customers', {})).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 940501' })).body.id
    const huge = await h.request('POST', `/numbers/${n}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', carrier: 'TalkTalk Business', carrierProduct: 'BIG', carrierReference: 'R', serviceChargeCarrier: '99999999999', featureCount: 100_000 })
    assert.is(huge.status, 201, JSON.stringify(huge.body))
    const byFeature = new RegExp(`^the bill cannot be reconciled: the costs its features were expected at \\(serviceChargeCarrier × featureCount\\) come to more than 99999999999.9999 by feature ${huge.body.id}$`)
    await refused(byFeature, 'TalkTalk%20Business', 'BIG,R,1.00')
    await refused(byFeature, 'TalkTalk%20Business', 'SMALL,R,1.00')
    assert.is((await h.request('GET', '/carrierBills?limit=1000')).body.length, before, 'no refused bill is kept')
    // At the bound's edge a line is a line.
    const edge = await post('Gamma', 'A,B,99999999999.9999', 'A,C,-99999999999.9999')
    assert.equal([edge.status, edge.body.totalCost, edge.body.notBilledCost], [201, 0, 0], JSON.stringify(edge.body))
  })

  test('a feature dropped or ended before the month is not active in it: its line is notBilled, it is not listed; one whose bill-to date is in the month is', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 940201' })).body.id
    const feature = async (fields: Record<string, unknown>) => {
      const r = await h.request('POST', `/numbers/${n}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', carrier: 'Vodafone', serviceChargeCarrier: '4.00', ...fields })
      assert.is(r.status, 201, JSON.stringify(r.body))
      return r.body.id as string
    }
    const drop = async (id: string, dateDrop: string) => {
      const r = await h.request('POST', `/features/${id}?action=drop`, { status: 'Dropped', dateDrop })
      assert.equal([r.status, r.body.billToDate, r.body.endDate], [200, dateDrop, null], JSON.stringify(r.body))
    }
    const live = await feature({ carrierProduct: 'SIP', carrierReference: 'LIVE' })
    const gone = await feature({ carrierProduct: 'SIP', carrierReference: 'GONE' }) // bill-to 15 December
    const goneUnbilled = await feature({ carrierProduct: 'SIP', carrierReference: 'GONE-2' }) // and not on the bill
    const leaving = await feature({ carrierProduct: 'SIP', carrierReference: 'LEAVING' }) // bill-to 10 January: active
    const leavingUnbilled = await feature({ carrierProduct: 'SIP', carrierReference: 'LEAVING-2' })
    await drop(gone, '2025-12-15')
    await drop(goneUnbilled, '2025-12-15')
    await drop(leaving, '2026-01-10')
    await drop(leavingUnbilled, '2026-01-10')
    const body = 'productCode,reference,cost\nSIP,LIVE,4.00\nSIP,GONE,4.00\nSIP,LEAVING,4.00\n'
    const r = await h.request('POST', '/carrierBills?carrier=Vodafone&period=2026-01', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.matchedCount, r.body.notBilledCount, r.body.notOnCarrierBillCount], [2, 1, 1])
    const rec = (await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`)).body
    assert.equal(rec.matched.map((m: any) => m.featureID), [live, leaving])
    assert.equal(rec.notBilled.map((m: any) => m.reference), ['GONE'])
    assert.equal(rec.notOnCarrierBill.map((m: any) => m.featureID), [leavingUnbilled])
  })

  test("the reconciliation's notOnCarrierBill list is what was counted when the bill was posted, whatever the features do after", async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 940301', carrierReference: 'N-1' })).body.id
    const feature = async (fields: Record<string, unknown>) => {
      const r = await h.request('POST', `/numbers/${n}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', carrier: 'BT Wholesale', serviceChargeCarrier: '4.00', ...fields })
      assert.is(r.status, 201, JSON.stringify(r.body))
      return r.body.id as string
    }
    await feature({ carrierProduct: 'SIP' })
    const missing = await feature({ carrierProduct: 'BB', carrierReference: 'CIRC', featureCount: 2 })
    const r = await h.request('POST', '/carrierBills?carrier=BT%20Wholesale&period=2026-01', undefined, { raw: 'productCode,reference,cost\nSIP,N-1,4.00\n', headers: { 'content-type': 'text/csv' } })
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.notOnCarrierBillCount, r.body.notOnCarrierBillExpectedCost], [1, 8])
    // After the bill: a new feature of the carrier, and the missing one dropped back to before the month.
    await feature({ carrierProduct: 'HS', carrierReference: 'LATE' })
    assert.is((await h.request('POST', `/features/${missing}?action=drop`, { status: 'Dropped', dateDrop: '2025-12-01' })).status, 200)
    const rec = (await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`)).body
    assert.equal(rec.summary.notOnCarrierBill, { count: 1, expectedCost: 8 })
    assert.equal(rec.notOnCarrierBill, [{ featureID: missing, expectedCost: 8 }])
    const csv = await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`, undefined, { headers: { accept: 'text/csv' } })
    assert.equal(csv.text.trim().split('\r\n').slice(1), ['matched,2,SIP,N-1,,,4,,,' + rec.matched[0].featureID + ',4,0', `notOnCarrierBill,,,,,,,,,${missing},8,`, 'total matched,1,,,,,4,,,,4,0', 'total costDiffers,0,,,,,0,,,,0,', 'total notBilled,0,,,,,0,,,,,', 'total notOnCarrierBill,1,,,,,,,,,8,'])
  })

  test('patterns: only * and ? are special; brackets and parentheses in references are themselves', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 940401' })).body.id
    const feature = async (fields: Record<string, unknown>) => {
      const r = await h.request('POST', `/numbers/${n}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', carrier: 'Openreach', serviceChargeCarrier: '1.00', ...fields })
      assert.is(r.status, 201, JSON.stringify(r.body))
      return r.body.id as string
    }
    const paren = await feature({ carrierProduct: 'SIP', carrierReferenceMatches: 'REF(1)*' })
    const bracket = await feature({ carrierProductMatches: 'A[1]?', carrierReference: 'R' })
    const body = 'productCode,reference,cost\nSIP,REF(1)23,1.00\nSIP,REF123,1.00\nA[1]B,R,1.00\nA1B,R,1.00\n'
    const r = await h.request('POST', '/carrierBills?carrier=Openreach&period=2026-01', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    assert.is(r.status, 201, JSON.stringify(r.body))
    const rec = (await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`)).body
    assert.equal(rec.matched.map((m: any) => [m.line, m.featureID]), [[2, paren], [4, bracket]])
    assert.equal(rec.notBilled.map((m: any) => m.line), [3, 5])
  })

  test('carrier bills need expert level 3 (contract 17.4): 403103 below it, nothing stored', async ({ h }) => {
    const before = (await h.request('GET', '/carrierBills?limit=1000')).body.length
    const low = { key: h.keys.low }
    const posted = await h.request('POST', '/carrierBills?carrier=Gamma&period=2026-01', undefined, { ...low, raw: 'productCode,reference,cost\nSIP,R1,1.00\n', headers: { 'content-type': 'text/csv' } })
    assert.equal([posted.status, posted.body.error_code], [403, 403103])
    for (const path of ['/carrierBills', '/carrierBills/1', '/carrierBills/1/reconciliation']) {
      const r = await h.request('GET', path, undefined, low)
      assert.equal([r.status, r.body.error_code], [403, 403103], path)
    }
    assert.is((await h.request('GET', '/carrierBills?limit=1000')).body.length, before)
  })

  test.run()
}
