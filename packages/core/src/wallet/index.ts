export { collectDebt, collectShoeDebts, debtBooksOf } from './commission';
export { getOperatorWallet, operatorOf, setOperatorWallet } from './operators';
export { planPositionMovement } from './position-movement';
export { closeTableSession, getResponsibleGaming, setResponsibleGaming } from './responsible-gaming';
export { checkBet } from './responsible-gaming-rules';
export { ledgerBody, type MovementPlan, planMovement, walletGenesis } from './wallet-ledger';
export { walletModeOf } from './wallet-modes';
export { getLedger, getWallet, walletTransaction } from './wallets';
